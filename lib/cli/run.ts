import { parseArgs } from "node:util";
import type { Database } from "@/db/client";
import { AppError } from "@/lib/errors";
import { type CliCommand, type CliIo, CliUsageError, type StandaloneCliCommand } from "./command";
import { commands as allCommands } from "./commands";

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

function help(commands: (CliCommand | StandaloneCliCommand)[]): string {
  return [
    "Usage: npm run cli -- <command> [options] [--json]",
    "",
    "Commands:",
    ...commands.map((command) => `  ${command.usage}\n      ${command.description}`),
  ].join("\n");
}

/**
 * Runs one CLI invocation against a database and returns the exit code. Errors the operator can fix are printed
 * as one clear line (as JSON with --json); nothing else is printed.
 */
export async function runCli(
  argv: string[],
  openDb: () => Promise<{ db: Database; close(): Promise<void> }>,
  output: CliOutput,
  commands: (CliCommand | StandaloneCliCommand)[] = allCommands,
): Promise<number> {
  const [name, ...rest] = argv;
  const json = rest.includes("--json");
  const fail = (message: string, code: number) => {
    output.err(json ? JSON.stringify({ error: message }) : `Error: ${message}`);
    return code;
  };
  if (!name || name === "help" || name === "--help") {
    output.out(help(commands));
    return name ? 0 : 2;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) return fail(`Unknown command "${name}".\n\n${help(commands)}`, 2);

  let args: { values: Record<string, unknown>; positionals: string[] };
  try {
    args = parseArgs({
      args: rest,
      options: { ...command.options, json: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return fail(`${(error as Error).message}\nUsage: ${command.usage}`, 2);
  }

  const io: CliIo = {
    json,
    print: (human, data) => output.out(json ? JSON.stringify(data) : human),
  };
  let handle: Awaited<ReturnType<typeof openDb>> | undefined;
  try {
    if ("standalone" in command) await command.run(args, io);
    else {
      handle = await openDb();
      await command.run(handle.db, args, io);
    }
    return 0;
  } catch (error) {
    if (error instanceof CliUsageError) return fail(`${error.message}\nUsage: ${command.usage}`, 2);
    if (error instanceof AppError) return fail(error.message, 1);
    return fail(`Unexpected failure: ${(error as Error).message ?? String(error)}`, 1);
  } finally {
    await handle?.close();
  }
}
