/** Where the local server keeps its store and demo keys, and where the admin CLI and backfill look for it. */
export const DATA_DIR_ENV = 'FXRATES_DATA_DIR';
export const DEFAULT_DATA_DIR = '.data';
