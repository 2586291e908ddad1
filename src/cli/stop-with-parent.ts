/**
 * npx and npm scripts start the server through `sh -c`, and npm forwards a signal it receives (`kill $!`) to that
 * shell only: the shell dies, and this process would go on serving, re-parented, holding the data-file lock. So
 * when npm started it (npm sets npm_command) and the parent goes away, stop as on SIGTERM. Node has no
 * parent-death signal, hence the (unref'd, cheap) poll.
 */
export function stopWithParent(stop: () => void, env: NodeJS.ProcessEnv = process.env, everyMs = 250): void {
  if (!env.npm_command) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop();
  }, everyMs);
  timer.unref();
}
