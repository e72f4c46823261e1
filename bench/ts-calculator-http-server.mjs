// The Streamable HTTP reference for bench/serve.sh: the calculator of
// ts-calculator.mjs served with the official TypeScript SDK the way its
// documentation serves a stateless server: a new server and transport for
// every POST (sessionIdGenerator undefined), JSON responses rather than an
// event stream, as toolctl serve --http answers. Listens on 127.0.0.1 at
// the port given as the first argument; SIGTERM stops it.
import http from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { newCalculatorServer } from "./ts-calculator.mjs";

const port = Number(process.argv[2] ?? 8080);
const httpServer = http.createServer(async (req, res) => {
  if (req.method !== "POST" || !req.url.startsWith("/mcp")) {
    res.writeHead(405, { Allow: "POST" }).end();
    return;
  }
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  let body;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    res.writeHead(400, { "Content-Type": "application/json" })
      .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }));
    return;
  }
  const server = newCalculatorServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => {
    transport.close();
    server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
});
httpServer.keepAliveTimeout = 120_000;
httpServer.listen(port, "127.0.0.1");
process.on("SIGTERM", () => process.exit(0));
