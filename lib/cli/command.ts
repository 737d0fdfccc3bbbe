import type { Database } from "@/db/client";

export interface CliIo {
  json: boolean;
  /** Prints a result: the object as JSON with --json, otherwise the human line. */
  print(human: string, data: unknown): void;
}

export interface CliCommand {
  name: string;
  usage: string;
  description: string;
  options: Record<string, { type: "string" | "boolean"; multiple?: boolean }>;
  run(
    db: Database,
    args: { values: Record<string, unknown>; positionals: string[] },
    io: CliIo,
  ): Promise<void>;
}

/** A command that never opens the database, so it runs beside the app even on the embedded one. */
export interface StandaloneCliCommand extends Omit<CliCommand, "run"> {
  standalone: true;
  run(args: { values: Record<string, unknown>; positionals: string[] }, io: CliIo): Promise<void>;
}

/** A required string option, or a usage error naming it. */
export function requireOption(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value.trim() === "") throw new CliUsageError(`--${name} is required.`);
  return value;
}

export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliUsageError";
  }
}
