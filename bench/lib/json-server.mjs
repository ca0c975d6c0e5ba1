/**
 * A loopback node:http server for the per-call benchmark, run as its own process so it does not share
 * the client's event loop. It serves prebuilt JSON bodies: GET /items/{id} (about 2 KB) and
 * GET /items (about 1 MB). Prints its port on stdout and exits when stdin closes.
 */
import { createServer } from "node:http";
import { itemBody, listBody } from "./call-fixture.mjs";

const item = Buffer.from(JSON.stringify(itemBody()));
const list = Buffer.from(JSON.stringify(listBody()));

const server = createServer((request, response) => {
  const body = request.url?.startsWith("/items/")
    ? item
    : request.url?.startsWith("/items")
      ? list
      : undefined;
  if (body === undefined) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { "content-type": "application/json", "content-length": body.length });
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(
    `${JSON.stringify({ port: server.address().port, item: item.length, list: list.length })}\n`,
  );
});
process.stdin.resume();
process.stdin.on("end", () => server.close(() => process.exit(0)));
