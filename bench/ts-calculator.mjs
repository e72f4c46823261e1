// The calculator tool of the TypeScript references for bench/serve.sh
// (ts-calculator-server.mjs over stdio, ts-calculator-http-server.mjs over
// Streamable HTTP), written with the official TypeScript SDK: the same
// input and output schemas as toolctl's calculator builtin (validated by
// the SDK, as toolctl validates them), a safe evaluator (no eval), the
// result as structuredContent plus its JSON text.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const FUNCS = { sqrt: Math.sqrt, cbrt: Math.cbrt, abs: Math.abs, floor: Math.floor, ceil: Math.ceil, trunc: Math.trunc,
  round: (x, n = 0) => Math.round(x * 10 ** n) / 10 ** n, min: Math.min, max: Math.max, pow: Math.pow, exp: Math.exp,
  ln: Math.log, log: (x, b) => (b === undefined ? Math.log(x) : Math.log(x) / Math.log(b)), log10: Math.log10, log2: Math.log2,
  sin: Math.sin, cos: Math.cos, tan: Math.tan, asin: Math.asin, acos: Math.acos, atan: Math.atan, atan2: Math.atan2,
  hypot: Math.hypot, sign: Math.sign };
const CONSTS = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI };

// evaluate parses by recursive descent: + - * / % ^ ** ( ), unary signs,
// the constants and functions above; anything else is an error.
function evaluate(src) {
  const toks = src.match(/\d+\.?\d*(?:e[+-]?\d+)?|\.\d+|\*\*|[a-z_]\w*|\S/gi) ?? [];
  let i = 0;
  const peek = () => toks[i], next = () => toks[i++];
  const expect = (t) => { if (next() !== t) throw new Error(`expected ${t} at token ${i}`); };
  const expr = () => { let v = term(); while (peek() === "+" || peek() === "-") v = next() === "+" ? v + term() : v - term(); return v; };
  const term = () => {
    let v = unary();
    while (["*", "/", "%"].includes(peek())) {
      const op = next(), r = unary();
      if (op !== "*" && r === 0) throw new Error("division by zero");
      v = op === "*" ? v * r : op === "/" ? v / r : v % r;
    }
    return v;
  };
  const unary = () => (peek() === "-" ? (next(), -unary()) : peek() === "+" ? (next(), unary()) : power());
  const power = () => { const b = atom(); if (peek() === "^" || peek() === "**") { next(); return b ** unary(); } return b; };
  const atom = () => {
    const t = next();
    if (t === undefined) throw new Error("unexpected end of expression");
    if (t === "(") { const v = expr(); expect(")"); return v; }
    if (/^[\d.]/.test(t)) return Number(t);
    if (Object.hasOwn(CONSTS, t)) return CONSTS[t];
    if (Object.hasOwn(FUNCS, t)) {
      expect("(");
      const args = [expr()];
      while (peek() === ",") { next(); args.push(expr()); }
      expect(")");
      return FUNCS[t](...args);
    }
    throw new Error(`unexpected ${t}`);
  };
  const v = expr();
  if (i < toks.length) throw new Error(`unexpected ${toks[i]}`);
  if (!Number.isFinite(v)) throw new Error("the result is not a finite number");
  return v;
}

// newCalculatorServer returns a server with the calculator tool.
export function newCalculatorServer() {
  const server = new McpServer({ name: "ts-calculator", version: "1.0.0" });
  server.registerTool("calculator", {
    description: "Evaluates an arithmetic expression exactly and rounds the result.",
    inputSchema: {
      expression: z.string().min(1).max(4096).describe("Arithmetic expression, e.g. (19.99 * 3) * 1.2"),
      precision: z.number().int().min(0).max(15).default(10).describe("Decimal places the result is rounded to"),
    },
    outputSchema: { result: z.number(), expression: z.string() },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, async ({ expression, precision }) => {
    try {
      const f = 10 ** precision;
      const out = { expression, result: Math.round(evaluate(expression) * f) / f };
      return { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out };
    } catch (e) {
      return { isError: true, content: [{ type: "text", text: `calculator: ${e.message}` }] };
    }
  });
  return server;
}
