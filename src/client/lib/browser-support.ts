// Detects the browser features the app needs: WebGL, WebAssembly, and camera/microphone capture.

function hasWebGL(): boolean {
  try {
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
    if (!context) return false;
    context.getExtension('WEBGL_lose_context')?.loseContext();
    return true;
  } catch {
    return false;
  }
}

/** The messages of the missing features, empty when the browser has everything. */
export function missingBrowserFeatures(): string[] {
  const missing: string[] = [];
  if (!hasWebGL()) missing.push('WebGL is not available');
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
    missing.push('WebAssembly is not supported');
  }
  if (typeof navigator.mediaDevices?.getUserMedia !== 'function') {
    missing.push('Camera/Microphone access is not available');
  }
  return missing;
}
