/**
 * schemarouter/agents — governed tools for agent frameworks (docs/agents/README.md): the Vercel AI
 * SDK, the OpenAI Agents SDK, LangChain.js and the raw OpenAI / Anthropic formats. Each framework is
 * an optional peer dependency, imported only when its adapter is called. Every tool call runs through
 * `router.invoke()` with pinned fingerprints and a fixed field selection; refusals reach the model as
 * tool results (`{ ok: false, code, retryable, message }`).
 */
export { type AiSdkTools, type AiSdkToolsOptions, aiSdkTools } from "./ai-sdk.js";
export {
  type AnthropicBlockLike,
  type AnthropicMessageLike,
  type AnthropicTool,
  type AnthropicToolResult,
  AnthropicTools,
  type AnthropicToolUse,
  anthropicTools,
} from "./anthropic-raw.js";
export { AgentApprovals, type AgentApprovalsOptions, type ApprovalBinding, bindingOf } from "./approvals.js";
export {
  DynamicSelection,
  type DynamicToolsOptions,
  discoveredNames,
  SEARCH_TOOL_NAME,
  type SearchResultEntry,
} from "./dynamic.js";
export { type LangChainTools, type LangChainToolsOptions, langchainTools } from "./langchain.js";
export { isStrictSubset, type ModelSchema, modelInputSchema, quoteUntrusted } from "./model-schema.js";
export {
  isSafeName,
  NAME_PROFILES,
  type NamedRoute,
  type NameMapOptions,
  type NameProfile,
  type NameProfileId,
  providerSafeName,
  ToolNameMap,
} from "./names.js";
export {
  type OpenAIAgentsDynamicOptions,
  type OpenAIAgentsTools,
  type OpenAIAgentsToolsOptions,
  openaiAgentsTools,
} from "./openai-agents.js";
export {
  type ChatFunctionTool,
  type ChatMessageLike,
  type ChatToolCall,
  type ChatToolMessage,
  OpenAIChatTools,
  OpenAIResponsesTools,
  openaiChatTools,
  openaiResponsesTools,
  type ResponsesFunctionCall,
  type ResponsesFunctionCallOutput,
  type ResponsesFunctionTool,
  type ResponsesItemLike,
} from "./openai-raw.js";
export type { DefinitionOptions, RawTools, RawToolsOptions } from "./raw-core.js";
export { AgentToolRefusalError, type ToolOutcome, type ToolRefusal, type ToolSuccess } from "./refusal.js";
export type { AgentCallInfo, AgentRunConfig } from "./run-config.js";
export {
  type AgentTool,
  AgentToolSet,
  type AgentToolSetOptions,
  type RouteSelection,
  type ToolSelection,
} from "./tool-set.js";
