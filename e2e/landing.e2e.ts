// The landing page's How It Works tabs, our own WAI-ARIA tabs (components/ui/tabs.tsx): one tab stop,
// arrow keys, Home and End move and select, the pointer selects, and one labelled panel is shown. And its
// later sections, which a phone loads at the visitor's first scroll (decision 005).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, MOBILE, type RunningServer, launchBrowser, newPage, screenshot, startServer } from './harness';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const PANEL_TITLES = {
  'Create Profiles': 'Add the people your child loves',
  'Customize Videos': 'Pick a lesson and who stars in it',
  'Watch & Learn': 'Press play and learn together',
} as const;
type TabName = keyof typeof PANEL_TITLES;

/** The selected tab, the focused element's name, and the one panel shown with the tab that labels it. */
async function tabsState(page: Page) {
  return page.evaluate(() => {
    const tablist = document.querySelector('#how-it-works [role="tablist"]')!;
    const tabs = [...tablist.querySelectorAll<HTMLElement>('[role="tab"]')];
    const panels = [...document.querySelectorAll<HTMLElement>('#how-it-works [role="tabpanel"]')];
    const labelledBy = panels.map((panel) => document.getElementById(panel.getAttribute('aria-labelledby') ?? '')?.textContent);
    return {
      selected: tabs.filter((tab) => tab.getAttribute('aria-selected') === 'true').map((tab) => tab.textContent),
      tabStops: tabs.filter((tab) => tab.tabIndex === 0).length,
      focused: document.activeElement?.textContent,
      panels: panels.map((panel) => panel.querySelector('h3')?.textContent),
      labelledBy,
      controlsShownPanel: tabs.find((tab) => tab.getAttribute('aria-selected') === 'true')?.getAttribute('aria-controls') === panels[0]?.id,
    };
  });
}

async function expectSelected(page: Page, name: TabName) {
  expect(await tabsState(page)).toEqual({
    selected: [name],
    tabStops: 1,
    focused: expect.anything(),
    panels: [PANEL_TITLES[name]],
    labelledBy: [name],
    controlsShownPanel: true,
  });
}

describe('landing page', () => {
  it('How It Works tabs follow the keyboard and the pointer', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    try {
      await page.goto('/landing');
      await page.getByRole('tab', { name: 'Create Profiles', selected: true }).waitFor();
      await expectSelected(page, 'Create Profiles');

      // The pointer selects.
      await page.getByRole('tab', { name: 'Watch & Learn' }).click();
      await expectSelected(page, 'Watch & Learn');

      // Arrow keys move focus and select, wrapping at both ends; Home and End go to the ends.
      await page.keyboard.press('ArrowRight');
      await expectSelected(page, 'Create Profiles');
      expect((await tabsState(page)).focused).toBe('Create Profiles');
      await page.keyboard.press('ArrowLeft');
      await expectSelected(page, 'Watch & Learn');
      await page.keyboard.press('Home');
      await expectSelected(page, 'Create Profiles');
      await page.keyboard.press('End');
      await expectSelected(page, 'Watch & Learn');
      await page.keyboard.press('ArrowLeft');
      await expectSelected(page, 'Customize Videos');

      // One tab stop: Tab leaves the tablist for the panel.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tabpanel');
      await screenshot(page, 'landing-how-it-works-tabs');
    } finally {
      await context.close();
    }
  });

  describe('the sections below the first screens', () => {
    /** A page that records which of the client's scripts it fetched. */
    async function openLanding(viewport: typeof DESKTOP, address = '/landing') {
      const opened = await newPage(browser, server.baseUrl, viewport);
      const scripts: string[] = [];
      opened.page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await opened.page.goto(address);
      await opened.page.getByRole('heading', { name: 'How It Works' }).waitFor();
      return { ...opened, laterSectionsFetched: () => scripts.some((script) => /\/landing-later-[\w-]+\.js$/.test(script)) };
    }
    const inView = (page: Page, id: string) =>
      page.evaluate((id) => {
        const box = document.getElementById(id)!.getBoundingClientRect();
        return box.top < window.innerHeight && box.bottom > 0;
      }, id);

    it('load on a phone at the first scroll, before the visitor gets there, with the footer below them', async () => {
      const { context, page, laterSectionsFetched } = await openLanding(MOBILE);
      try {
        await page.waitForLoadState('networkidle');
        expect(laterSectionsFetched()).toBe(false);
        expect(await page.getByRole('heading', { name: 'Featured Videos' }).count()).toBe(0);

        await page.mouse.wheel(0, 300);
        await page.getByRole('heading', { name: 'Featured Videos' }).waitFor();
        expect(laterSectionsFetched()).toBe(true);
        // Still well above them: they came before the visitor scrolled there.
        expect(await inView(page, 'featured-videos-title')).toBe(false);

        await page.getByRole('heading', { name: 'Pricing' }).scrollIntoViewIfNeeded();
        await page.getByRole('group', { name: 'Premium' }).waitFor();
        const order = await page.evaluate(() => ({
          ctaBottom: document.getElementById('cta-title')!.getBoundingClientRect().bottom,
          footerTop: document.querySelector('footer')!.getBoundingClientRect().top,
        }));
        expect(order.footerTop).toBeGreaterThan(order.ctaBottom);
        await screenshot(page, 'landing-later-sections-mobile');
      } finally {
        await context.close();
      }
    });

    it('are scrolled to when an address or a link names one before they are here', async () => {
      // Arriving at /landing#pricing.
      const arriving = await openLanding(MOBILE, '/landing#pricing');
      try {
        await arriving.page.getByRole('heading', { name: 'Pricing' }).waitFor();
        await expect.poll(() => inView(arriving.page, 'pricing')).toBe(true);
      } finally {
        await arriving.context.close();
      }

      // The desktop header's Pricing link, followed before anything else loaded them.
      const { context, page, laterSectionsFetched } = await openLanding(DESKTOP);
      try {
        await page.waitForLoadState('networkidle');
        expect(laterSectionsFetched()).toBe(false);
        await page.getByRole('navigation', { name: 'Landing' }).getByRole('link', { name: 'Pricing' }).click();
        await page.getByRole('heading', { name: 'Pricing' }).waitFor();
        await expect.poll(() => inView(page, 'pricing')).toBe(true);
        expect(new URL(page.url()).hash).toBe('#pricing');
      } finally {
        await context.close();
      }
    });
  });

  it('a page whose code cannot be fetched says so and reloads, never a blank page', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    try {
      await page.goto('/landing');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      // The connection drops (or a deploy took the old chunks away) before the visitor opens About.
      await page.route('**/assets/**', (route) => route.abort());
      await page.getByRole('contentinfo').getByRole('link', { name: 'About' }).click();
      const failed = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
      await failed.waitFor();
      await failed.getByText('The connection may have dropped, or FamilyStar was updated while this tab was open. Reload the page to carry on.').waitFor();
      await screenshot(page, 'page-load-failed');
      // Back online: Reload page shows the page asked for.
      await page.unroute('**/assets/**');
      await failed.getByRole('button', { name: 'Reload page' }).click();
      await page.waitForURL((url) => url.pathname === '/about');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await page.getByText('This page could not be loaded').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
