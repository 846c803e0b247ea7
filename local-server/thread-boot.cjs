// Worker threads start here: they do not inherit the parent's TypeScript loader, so register tsx's require hook
// and load the thread's module (a .ts file) through it.
const { workerData } = require('node:worker_threads');

require('tsx/cjs');
require(workerData.entry);
