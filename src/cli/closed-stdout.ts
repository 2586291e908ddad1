// Whoever reads a process's stdout may stop early (`| head -1`, a log shipper that went away). What the process does
// is not the reader's to end: the server keeps serving, unlogged, and a client command keeps its own verdict and exit
// code, instead of dying of an EPIPE's stack trace (exit 1, which a gate reads as failed).

/** Ignores EPIPE on stdout from now on: the writes that follow go nowhere. Any other write error still throws. */
export function outliveClosedStdout(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
