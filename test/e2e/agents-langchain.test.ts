/**
 * LangChain.js end to end: a scripted BaseChatModel with `bindTools` (as real chat models do), the real
 * `@langchain/core` structured tools invoked with the model's ToolCalls, governed calls against a real
 * server, ToolMessages back to the model. Refusals are ToolMessages with `status: "error"`; LangChain's
 * own input validation never sees a `pattern`, so a catastrophic-backtracking one cannot stall it.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { langchainTools } from "../../runtime/agents/index.js";
import { driftShop, EVIL_CODE, type ShopFixture, seen, startShop } from "../helpers/agents.js";

let shop: ShopFixture;
beforeAll(async () => {
  shop = await startShop();
});
afterAll(() => shop.close());

type ToolCallSpec = { readonly id: string; readonly name: string; readonly args: Record<string, unknown> };
type Turn = ToolCallSpec[] | string | (() => ToolCallSpec[]);

/** A scripted chat model: one turn per call; records the messages and the tool definitions it got. */
class ScriptedChatModel extends BaseChatModel {
  readonly seen: BaseMessage[][] = [];
  readonly offered: ReturnType<typeof convertToOpenAITool>[][] = [];
  /** The definitions of the last bindTools (a provider model would send these with the next call). */
  private bound: ReturnType<typeof convertToOpenAITool>[] = [];

  constructor(private readonly turns: Turn[]) {
    super({});
  }

  _llmType(): string {
    return "scripted";
  }

  override bindTools(tools: StructuredToolInterface[]) {
    this.bound = tools.map((tool) => convertToOpenAITool(tool));
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen.push([...messages]);
    this.offered.push(this.bound);
    const turn = this.turns[this.seen.length - 1] ?? "Done.";
    const message =
      typeof turn === "string"
        ? new AIMessage(turn)
        : new AIMessage({
            content: "",
            tool_calls: (typeof turn === "function" ? turn() : turn).map((call) => ({
              ...call,
              type: "tool_call" as const,
            })),
          });
    return { generations: [{ message, text: typeof turn === "string" ? turn : "" }] };
  }
}

/** The agent loop a LangChain app writes: model → tool calls → ToolMessages → model … */
async function loop(
  model: ScriptedChatModel,
  tools: Awaited<ReturnType<typeof langchainTools>>,
  prompt: string,
) {
  const messages: BaseMessage[] = [new HumanMessage(prompt)];
  for (let step = 0; step < 10; step++) {
    const reply = (await model.bindTools(tools.activeTools(messages)).invoke(messages)) as AIMessage;
    messages.push(reply);
    if (!reply.tool_calls?.length) break;
    for (const call of reply.tool_calls) {
      const tool = tools.tools.find((candidate) => candidate.name === call.name)!;
      messages.push((await tool.invoke({ ...call, type: "tool_call" })) as ToolMessage);
    }
  }
  return messages;
}

function toolMessages(messages: BaseMessage[]): Record<string, ToolMessage> {
  const out: Record<string, ToolMessage> = {};
  for (const message of messages) if (ToolMessage.isInstance(message)) out[message.tool_call_id] = message;
  return out;
}

describe("LangChain structured tools", () => {
  it("runs governed calls; refusals are error ToolMessages and the loop goes on", async () => {
    const router = await shop.load();
    const tools = await langchainTools(router);
    const before = shop.server.requests.length;
    const model = new ScriptedChatModel([
      [{ id: "c1", name: "shop_getPet", args: { petId: "rex" } }],
      [{ id: "c2", name: "shop_createPet", args: { name: "Milo" } }],
      [{ id: "c3", name: "shop_getBroken", args: {} }],
      () => {
        driftShop(router);
        return [{ id: "c4", name: "shop_getPet", args: { petId: "rex" } }];
      },
      "Rex is a dog.",
    ]);
    const messages = await loop(model, tools, "Tell me about rex");
    expect(messages.at(-1)!.text).toBe("Rex is a dog.");
    const replies = toolMessages(model.seen[4]!);
    expect(replies.c1!.status).toBe("success");
    expect(JSON.parse(replies.c1!.text)).toEqual({ ok: true, data: { id: "rex", name: "Rex", tag: "dog" } });
    for (const [id, code] of [
      ["c2", "POLICY_DENIED"],
      ["c3", "OUTPUT_SCHEMA_VIOLATION"],
      ["c4", "STALE_FINGERPRINT"],
    ] as const) {
      expect(replies[id]!.status).toBe("error");
      expect(JSON.parse(replies[id]!.text)).toMatchObject({ ok: false, code, retryable: false });
    }
    expect(seen(shop.server).slice(before)).toEqual(["GET /pets/rex", "GET /broken"]);
  });

  it("LangChain's own validation failures are error ToolMessages too, not exceptions", async () => {
    const tools = await langchainTools(await shop.load());
    const getPet = tools.tools.find((tool) => tool.name === "shop_getPet")!;
    const reply = (await getPet.invoke({
      id: "v1",
      name: "shop_getPet",
      args: { petId: 7 },
      type: "tool_call",
    })) as ToolMessage;
    expect(reply.status).toBe("error");
    expect(JSON.parse(reply.text)).toMatchObject({
      ok: false,
      code: "INPUT_SCHEMA_VIOLATION",
      retryable: true,
    });
  });

  it("a catastrophic-backtracking pattern is not in the schema LangChain evaluates; the boundary refuses", async () => {
    const tools = await langchainTools(await shop.load());
    const lookup = tools.tools.find((tool) => tool.name === "shop_lookupCode")!;
    expect(JSON.stringify(lookup.schema)).not.toContain("pattern");
    const reply = (await lookup.invoke({
      id: "e1",
      name: "shop_lookupCode",
      args: { code: EVIL_CODE },
      type: "tool_call",
    })) as ToolMessage;
    expect(reply.status).toBe("error");
    expect(JSON.parse(reply.text)).toMatchObject({ code: "INPUT_SCHEMA_VIOLATION", retryable: true });
  });

  it("dynamic: activeTools binds the top-k tools per step plus the ones search_capabilities listed", async () => {
    const tools = await langchainTools(await shop.load(), { dynamic: { k: 1 } });
    const model = new ScriptedChatModel([
      [{ id: "s1", name: "search_capabilities", args: { query: "code lookup" } }],
      [{ id: "s2", name: "shop_lookupCode", args: { code: "aaa" } }],
      "Done.",
    ]);
    await loop(model, tools, "Tell me about the pet rex");
    const names = model.offered.map((list) => list.map((tool) => tool.function.name));
    expect(names[0]).toEqual(["shop_getPet", "search_capabilities"]);
    expect(names[1]).toEqual(["shop_getPet", "shop_lookupCode", "search_capabilities"]);
    expect(JSON.parse(toolMessages(model.seen[2]!).s2!.text)).toEqual({ ok: true, data: { code: "aaa" } });
  });
});
