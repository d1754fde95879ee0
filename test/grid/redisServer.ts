/** A real redis-server for the grid tests, on a free loopback port, with nothing saved to disk. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer, connect } from "node:net";

/** Why redis-server cannot run here, or false when it can. */
export function redisMissing(): string | false {
  const r = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  return r.status === 0 ? false : "redis-server (apt-get install redis-server)";
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect(port, "127.0.0.1", () => {
      c.end();
      resolve(true);
    });
    c.on("error", () => resolve(false));
  });
}

/** Starts redis-server; `stop` ends it. */
export async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  for (let i = 0; i < 100 && !(await accepts(port)); i++) await new Promise((r) => setTimeout(r, 50));
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    }),
  };
}
