/** `npm start`: the server (bin/serve.ts), run from the JavaScript bin/built.mjs builds. */
import { runBuilt } from './built.mjs';

await runBuilt('bin/serve');
