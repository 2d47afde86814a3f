// The bench's worst cases run each call in a Node child process, so that a call past its time
// cap can be stopped: the child (lib/worst-child.mjs, lib/strategies-worst-child.mjs) loads what
// it needs, sends { ready: true }, waits for "run", then sends one message with its figures.
import { fork } from "node:child_process";

/** A child that has not sent `ready` after this many ms (loading, warming up) is stopped. */
export const LOAD_CAP_MS = 60_000;

/**
 * Forks `script` with `args`; once it is ready, sends "run" and waits at most `capMs` ms for its
 * answer. Resolves `{ message }` (the child's answer), `{ capped: true }` past the cap, or
 * `{ error }` (why the child could not answer: its last line on stderr, its exit, a failed fork
 * or send, or no `ready` within LOAD_CAP_MS). The child is killed in every case.
 */
export function runCapped(script, args, capMs) {
  return new Promise((resolve) => {
    const child = fork(script, args, { stdio: ["ignore", "ignore", "pipe", "ipc"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    let done = false;
    let timer = setTimeout(() => finish({ error: `not ready after ${LOAD_CAP_MS} ms` }), LOAD_CAP_MS);
    function finish(r) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      resolve(r);
    }
    child.on("message", (message) => {
      if (!message.ready) return finish({ message });
      clearTimeout(timer);
      timer = setTimeout(() => finish({ capped: true }), capMs);
      child.send("run", (e) => e && finish({ error: `cannot start the call: ${e.message}` }));
    });
    child.on("error", (e) => finish({ error: `the child failed: ${e.message}` }));
    child.on("exit", (code, signal) => finish({ error: stderr.trim().split("\n").at(-1) || `exit ${code ?? signal}` }));
  });
}
