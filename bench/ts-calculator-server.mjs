// The stdio reference for bench/serve.sh: the calculator of
// ts-calculator.mjs served over stdio with the official TypeScript SDK.
// serve.sh copies both files next to the SDK's node_modules to run them.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { newCalculatorServer } from "./ts-calculator.mjs";

await newCalculatorServer().connect(new StdioServerTransport());
