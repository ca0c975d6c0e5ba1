/**
 * The agent example: an AI SDK `generateText` loop over the locked Petstore capabilities, every tool
 * call crossing the router's fail-closed boundary. It runs with a scripted model and no API key (`npm
 * run demo`); `SCHEMAROUTER_AGENT_MODEL=openai:gpt-4.1-mini` (or `anthropic:…`) switches to a real
 * provider when its package (`@ai-sdk/openai`, `@ai-sdk/anthropic`) and key are present
 * (docs/agents/ai-sdk.md).
 */
import { generateText, type LanguageModel, stepCountIs } from "ai";
import { ExecutionPolicy, SchemaRouter } from "schemarouter";
import { aiSdkTools } from "schemarouter/agents";
import { startPetstoreServer } from "../petstore/server.mjs";
import { scriptedPetModel } from "./scripted-model.js";

const KEYS: Readonly<Record<string, string>> = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" };

/** The model named by SCHEMAROUTER_AGENT_MODEL (`provider:model`), or the scripted one. */
async function chooseModel(
  log: (line: string) => void,
): Promise<{ model: LanguageModel; scripted: boolean }> {
  const wanted = process.env.SCHEMAROUTER_AGENT_MODEL;
  const [provider = "", id = ""] = wanted?.split(":", 2) ?? [];
  const key = KEYS[provider];
  if (wanted !== undefined && key !== undefined && id !== "" && process.env[key] !== undefined) {
    try {
      const specifier = `@ai-sdk/${provider}`;
      const module = (await import(specifier)) as Record<string, (modelId: string) => LanguageModel>;
      return { model: module[provider]!(id), scripted: false };
    } catch {
      log(`(${wanted}: install @ai-sdk/${provider} to use it; using the scripted model)`);
    }
  } else if (wanted !== undefined) {
    log(
      `(${wanted}: needs "openai:<model>" or "anthropic:<model>" and its API key; using the scripted model)`,
    );
  }
  return { model: scriptedPetModel(), scripted: true };
}

export async function runAgentDemo(root: string, log: (line: string) => void): Promise<void> {
  const server = await startPetstoreServer({ token: "demo-token" });
  const router = await SchemaRouter.load({
    root,
    bindings: { petstore: { baseUrl: server.url, headers: { authorization: "Bearer demo-token" } } },
    policy: new ExecutionPolicy({ allowMutations: false }),
  });
  try {
    const { tools } = await aiSdkTools(router, {
      select: [{ route: "petstore.getPetById", fields: ["name", "weight"] }, "petstore.createPet"],
    });
    const { model, scripted } = await chooseModel(log);
    const result = await generateText({
      model,
      tools,
      stopWhen: stepCountIs(5),
      prompt: "How heavy is the pet rex? Then add a new pet named Milo.",
    });
    for (const step of result.steps) {
      for (const part of step.content) {
        if (part.type === "tool-result") log(`${part.toolName} → ${JSON.stringify(part.output)}`);
        if (part.type === "tool-error")
          log(`${part.toolName} → tool error ${String((part.error as Error).message)}`);
      }
    }
    log(`${scripted ? "scripted model" : "model"}: ${result.text}`);
    const posts = server.requests.filter((request) => request.method === "POST").length;
    log(`requests the server saw: ${server.requests.length} (POST: ${posts})`);
  } finally {
    await router.close();
    await server.close();
  }
}
