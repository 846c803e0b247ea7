// Worker threads start here: they do not inherit the parent's TypeScript loader, so register tsx's module hooks
// in this thread and load the thread's module (a .ts file) through them.
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(pathToFileURL(workerData.entry).href);
