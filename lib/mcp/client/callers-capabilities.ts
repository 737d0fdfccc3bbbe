import { currentRelay } from "../relay/downstream-relay";

/** The capabilities of the call's caller: what its relay can take (a question it cannot answer is not offered). */
export function callersCapabilities(): Record<string, unknown> {
  const relay = currentRelay();
  return {
    ...(relay?.elicit ? { elicitation: { form: {}, url: {} } } : {}),
    ...(relay?.createMessage ? { sampling: {} } : {}),
    ...(relay?.listRoots ? { roots: {} } : {}),
  };
}
