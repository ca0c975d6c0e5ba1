/**
 * The example's scripted model (no API key needed): the AI SDK's own MockLanguageModelV3 playing a
 * short conversation. It asks for a pet, tries to create one (which the local policy refuses), and
 * answers from the tool results it was actually given.
 */
import { MockLanguageModelV3 } from "ai/test";

type CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type Content = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>["content"];

const USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** The tool results in the prompt so far, as the model reads them (JSON values or error text). */
function toolResults(options: CallOptions): unknown[] {
  const results: unknown[] = [];
  for (const message of options.prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output as { type: string; value: unknown };
      results.push(output.type === "error-text" ? JSON.parse(String(output.value)) : output.value);
    }
  }
  return results;
}

export function scriptedPetModel(): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      step++;
      let content: Content;
      if (step === 1) {
        content = [
          {
            type: "tool-call",
            toolCallId: "call-1",
            toolName: "petstore_getPetById",
            input: '{"petId":"rex"}',
          },
        ];
      } else if (step === 2) {
        content = [
          {
            type: "tool-call",
            toolCallId: "call-2",
            toolName: "petstore_createPet",
            input: '{"name":"Milo"}',
          },
        ];
      } else {
        const [pet, refusal] = toolResults(options) as [
          { data: { name: string; weightGrams?: number } },
          { code: string; retryable: boolean },
        ];
        content = [
          {
            type: "text",
            text: `${pet.data.name} weighs ${pet.data.weightGrams ?? "?"} g. I could not add Milo: ${refusal.code} (retryable: ${refusal.retryable}).`,
          },
        ];
      }
      const calling = content.some((part) => part.type === "tool-call");
      return {
        content,
        finishReason: { unified: calling ? "tool-calls" : "stop", raw: undefined },
        usage: USAGE,
        warnings: [],
      };
    },
  });
}
