// Zod probes whether it may compile parsers with `new Function`; under our CSP (no 'unsafe-eval') the
// probe fails quietly, yet the browser still reports a CSP violation on every page with a form.
// Parse without compiling, so the policy stays strict and the reports stay empty (decision 015).
import { config } from 'zod';

config({ jitless: true });
