// Which pages draw the app's header and footer (app-chrome.tsx). Its own module, without imports, so
// that the build (vite.config.ts) can read it too: on these paths index.html fetches the chrome's chunk
// alongside the shell.

/** These pages draw their own header. */
export const PAGES_WITHOUT_CHROME: readonly string[] = ['/landing', '/auth'];

/** Whether the page at this path is shown inside the app's header and footer. */
export function showsChrome(pathname: string): boolean {
  return !PAGES_WITHOUT_CHROME.includes(pathname);
}
