/**
 * OpenAI Agents SDK end to end: the real `@openai/agents-core` Runner with a scripted `Model`, governed
 * calls against a real server, tool results back to the model through `errorFunction`. Also approvals
 * (needsApproval interruptions), dynamic tool sets (isEnabled, search_capabilities) and a
 * catastrophic-backtracking pattern.
 */
import {
  Agent,
  type AgentInputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Runner,
  Usage,
} from "@openai/agents-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentApprovals, openaiAgentsTools } from "../../runtime/agents/index.js";
import { ExecutionPolicy } from "../../runtime/boundary/policy.js";
import { driftShop, EVIL_CODE, type ShopFixture, seen, startShop } from "../helpers/agents.js";

let shop: ShopFixture;
beforeAll(async () => {
  shop = await startShop();
});
afterAll(() => shop.close());

type Output = ModelResponse["output"];
type Turn = Output | ((request: ModelRequest) => Output);

/** A scripted Model: one turn per model call; records every request. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly turns: Turn[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const { signal: _signal, tracing: _tracing, ...rest } = request;
    this.requests.push(structuredClone(rest) as ModelRequest);
    const turn = this.turns[this.requests.length - 1] ?? say("Done.");
    return { usage: new Usage(), output: typeof turn === "function" ? turn(request) : turn };
  }

  // biome-ignore lint/correctness/useYield: the scripted model does not stream
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("the scripted model does not stream");
  }
}

const call = (callId: string, name: string, args: unknown): Output => [
  { type: "function_call", callId, name, arguments: JSON.stringify(args), status: "completed" },
];
const say = (text: string): Output => [
  { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text }] },
];

/** The function results in a request's input, by call id (the text the model reads). */
function results(request: ModelRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of request.input as AgentInputItem[]) {
    if (item.type !== "function_call_result") continue;
    const output = item.output;
    out[item.callId] =
      typeof output === "string" ? output : ((output as { text?: string }).text ?? JSON.stringify(output));
  }
  return out;
}

const runner = new Runner({ tracingDisabled: true });

describe("OpenAI Agents Runner", () => {
  it("runs governed calls; refusals reach the model through errorFunction and the run goes on", async () => {
    const router = await shop.load();
    const { tools } = await openaiAgentsTools(router);
    const before = shop.server.requests.length;
    const model = new ScriptedModel([
      call("c1", "shop_getPet", { petId: "rex" }),
      call("c2", "shop_createPet", { name: "Milo" }),
      call("c3", "shop_getBroken", {}),
      () => {
        driftShop(router);
        return call("c4", "shop_getPet", { petId: "rex" });
      },
      say("Rex is a dog."),
    ]);
    const agent = new Agent({ name: "shop", instructions: "Help with pets.", model, tools });
    const result = await runner.run(agent, "Tell me about rex", { maxTurns: 10 });
    expect(result.finalOutput).toBe("Rex is a dog.");
    const seenByModel = results(model.requests[4]!);
    expect(JSON.parse(seenByModel.c1!)).toEqual({ ok: true, data: { id: "rex", name: "Rex", tag: "dog" } });
    for (const [id, code] of [
      ["c2", "POLICY_DENIED"],
      ["c3", "OUTPUT_SCHEMA_VIOLATION"],
      ["c4", "STALE_FINGERPRINT"],
    ] as const) {
      expect(JSON.parse(seenByModel[id]!)).toMatchObject({ ok: false, code, retryable: false });
    }
    // Not the SDK's default "An error occurred while running the tool. Please try again."
    expect(JSON.stringify(seenByModel)).not.toContain("Please try again");
    expect(JSON.stringify(seenByModel)).not.toContain("Milo");
    expect(seen(shop.server).slice(before)).toEqual(["GET /pets/rex", "GET /broken"]);
    const definition = model.requests[0]!.tools.find(
      (tool) => tool.type === "function" && tool.name === "shop_getPet",
    );
    expect(definition).toMatchObject({ strict: false, parameters: { type: "object", required: ["petId"] } });
  });

  it("unparsable arguments and a catastrophic-backtracking pattern are refusals, not stalls or crashes", async () => {
    const router = await shop.load();
    const { tools } = await openaiAgentsTools(router);
    const model = new ScriptedModel([
      [{ type: "function_call", callId: "j1", name: "shop_getPet", arguments: "{nope", status: "completed" }],
      call("e1", "shop_lookupCode", { code: EVIL_CODE }),
      say("Sorry."),
    ]);
    await runner.run(new Agent({ name: "shop", model, tools }), "look up", { maxTurns: 5 });
    const seenByModel = results(model.requests[2]!);
    // Unparsable JSON is answered by the SDK itself before the tool runs (agents-core
    // runner/toolExecution buildParseErrorResult): a retry with valid JSON is the right advice there.
    expect(seenByModel.j1).toContain("Please try again with valid JSON");
    expect(JSON.parse(seenByModel.e1!)).toMatchObject({ code: "INPUT_SCHEMA_VIOLATION", retryable: true });
  });

  it("strict: true sends strict definitions only for schemas that provably fit, and they still run", async () => {
    const router = await shop.load();
    const { tools } = await openaiAgentsTools(router, {
      strict: true,
      select: ["shop.getPet", "shop.lookupCode"],
    });
    const model = new ScriptedModel([call("s1", "shop_getPet", { petId: "rex" }), say("Rex.")]);
    await runner.run(new Agent({ name: "shop", model, tools }), "rex");
    const strictness = model.requests[0]!.tools.map((tool) => [
      (tool as { name: string }).name,
      (tool as { strict?: boolean }).strict,
    ]);
    expect(strictness).toEqual([
      ["shop_getPet", true],
      ["shop_lookupCode", false],
    ]);
    expect(JSON.parse(results(model.requests[1]!).s1!)).toMatchObject({ ok: true });
  });
});

describe("approvals bridge (needsApproval interruptions)", () => {
  it("runs a write only after the interruption is approved on the run state", async () => {
    const approvals = new AgentApprovals();
    const policy = new ExecutionPolicy({ allowMutations: true, approval: "non-read-only" });
    const router = await shop.load({ policy, approve: approvals.approve });
    const { tools } = await openaiAgentsTools(router, { approvals });
    const before = shop.server.requests.length;
    const model = new ScriptedModel([call("w1", "shop_createPet", { name: "Milo" }), say("Created.")]);
    const agent = new Agent({ name: "shop", model, tools });
    const first = await runner.run(agent, "create Milo");
    expect(first.interruptions).toHaveLength(1);
    expect(seen(shop.server).slice(before)).toEqual([]);
    first.state.approve(first.interruptions[0]!);
    const second = await runner.run(agent, first.state);
    expect(second.finalOutput).toBe("Created.");
    expect(seen(shop.server).slice(before)).toEqual(["POST /pets"]);
    expect(JSON.parse(results(model.requests[1]!).w1!)).toEqual({
      ok: true,
      data: { id: "milo", name: "Milo" },
    });
  });

  it("a rejected interruption never reaches the server", async () => {
    const approvals = new AgentApprovals();
    const policy = new ExecutionPolicy({ allowMutations: true, approval: "non-read-only" });
    const router = await shop.load({ policy, approve: approvals.approve });
    const { tools } = await openaiAgentsTools(router, { approvals });
    const before = shop.server.requests.length;
    const model = new ScriptedModel([call("w2", "shop_createPet", { name: "Milo" }), say("OK.")]);
    const agent = new Agent({ name: "shop", model, tools });
    const first = await runner.run(agent, "create Milo");
    first.state.reject(first.interruptions[0]!);
    await runner.run(agent, first.state);
    expect(seen(shop.server).slice(before)).toEqual([]);
  });
});

describe("dynamic tool sets (isEnabled)", () => {
  it("enables the top-k tools for the run's query, and the ones search_capabilities listed", async () => {
    const router = await shop.load();
    const { tools } = await openaiAgentsTools(router, { dynamic: { k: 1 } });
    const model = new ScriptedModel([
      call("s1", "search_capabilities", { query: "code lookup" }),
      call("s2", "shop_lookupCode", { code: "aaa" }),
      say("Done."),
    ]);
    const agent = new Agent({ name: "shop", model, tools });
    await runner.run(agent, "Tell me about the pet rex", { context: { query: "Tell me about the pet rex" } });
    const offered = model.requests.map((request) =>
      request.tools.map((tool) => (tool as { name: string }).name),
    );
    expect(offered[0]).toEqual(["shop_getPet", "search_capabilities"]);
    expect(offered[1]).toEqual(["shop_getPet", "shop_lookupCode", "search_capabilities"]);
    expect(JSON.parse(results(model.requests[2]!).s2!)).toEqual({ ok: true, data: { code: "aaa" } });
  });
});
