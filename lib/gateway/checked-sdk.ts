/**
 * The release of the SDK's server package whose answers the gateway copies where it answers without the SDK: the
 * body limits and their messages (gateway-body.ts) and the lone tools/list and tools/call answers
 * (tools-list-answer.ts, tools-call-answer.ts, lone-request.ts). Tests compare each with the SDK's own answer;
 * tests/unit/gateway/checked-sdk.test.ts fails when another release is installed, until they are checked again.
 */
export const CHECKED_SDK_VERSION = "2.4.0";
