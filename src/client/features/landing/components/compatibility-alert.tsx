import { TriangleAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { missingBrowserFeatures } from '@client/lib/browser-support';

/** Warns when the browser lacks WebGL, WebAssembly or camera/microphone capture; renders nothing otherwise. */
export function CompatibilityAlert() {
  const [missing, setMissing] = useState<string[]>([]);
  // Checked after the first paint: creating a WebGL context takes a moment.
  useEffect(() => setMissing(missingBrowserFeatures()), []);

  if (missing.length === 0) return null;
  return (
    <div className="container-page">
      <Alert variant="destructive">
        <TriangleAlert aria-hidden="true" />
        <AlertTitle>Compatibility Issue</AlertTitle>
        <AlertDescription>
          <p>Your browser doesn&apos;t support all the features needed for the best experience.</p>
          <ul className="list-disc pl-5">
            {missing.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <p>Try using a modern browser like Chrome, Firefox, or Edge.</p>
        </AlertDescription>
      </Alert>
    </div>
  );
}
