/**
 * The integration tests start real servers, child processes and browsers, while files of every layer run beside
 * them on the same cores (and, on a shared machine, other people's work too): starting a server can take longer
 * than jest's default 5 s without anything being wrong. A test that has a time budget asserts it itself.
 */
jest.setTimeout(30_000);
