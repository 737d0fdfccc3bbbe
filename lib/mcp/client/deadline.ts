export class ConnectTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConnectTimeoutError";
  }
}

/** The promise's outcome, or a ConnectTimeoutError with `message` once `ms` have passed. */
export async function withDeadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ConnectTimeoutError(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits for the promise to settle, at most `ms`; whether it did is not told (nor its outcome). */
export async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.then(
      () => {},
      () => {},
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
