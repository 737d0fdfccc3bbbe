import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { getEnv } from "@/lib/env";

/** This host's folders that may show in a local server's messages, longest first, with what stands for each. */
function hostFolders(): [string, string][] {
  const folders: [string, string][] = [
    [path.resolve(getEnv().DATA_DIR), "<data folder>"],
    [process.cwd(), "<app folder>"],
    [path.dirname(process.execPath), "<node folder>"],
    [tmpdir(), "<temporary folder>"],
    [homedir(), "<home folder>"],
  ];
  return folders.filter(([folder]) => folder.length > 1).sort((x, y) => y[0].length - x[0].length);
}

/**
 * The text with this host's folders replaced by what they are: a local (stdio) server's errors name files on this
 * host, which callers (an API key's owner, a model) have no business knowing.
 */
export function hideHostPaths(text: string): string {
  let hidden = text;
  for (const [folder, name] of hostFolders()) hidden = hidden.split(folder).join(name);
  return hidden;
}
