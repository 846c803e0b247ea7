/** `npm run admin`: the admin CLI (bin/admin.ts), run from the JavaScript bin/built.mjs builds. */
import { runBuilt } from './built.mjs';

await runBuilt('bin/admin');
