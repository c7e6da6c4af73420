// The sign-up gate's solver, off the page's thread: ALTCHA's worker protocol (solve-gate.ts sends
// it a challenge and where to start counting) with the browser's own PBKDF2 (WebCrypto).
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { handler } from 'altcha-lib/workers/shared';

handler({ deriveKey });
