import { expect } from "vitest";
import { AppError } from "@/lib/errors";

/** What a call that must fail threw, checked to be one of our errors (so its status and message count). */
export async function appErrorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
