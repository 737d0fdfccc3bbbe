/**
 * The release of the SDK's server package whose answers the gateway copies where it answers without the SDK: the
 * body limits and their messages (gateway-body.ts), the lone tools/list and tools/call answers
 * (tools-list-answer.ts, tools-call-answer.ts, lone-request.ts) and the lone 2026-07-28 tools/call answer
 * (modern-lone-call.ts); and what it leans on of the SDK's own: an McpServer telling the SDK's handler a called
 * tool's input schema (request-server.ts). Tests compare each with the SDK's own answer
 * (gateway-tools-call, gateway-tools-list, gateway-modern-tools-call); tests/unit/gateway/checked-sdk.test.ts
 * fails when another release is installed, until they are checked again.
 */
export const CHECKED_SDK_VERSION = "2.4.0";
