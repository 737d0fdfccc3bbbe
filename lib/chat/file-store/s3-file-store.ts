import { createHash } from "node:crypto";
import { AwsClient } from "aws4fetch";
import { type ChatFileStore, fileStoreFailed, fileStoreUnavailable, objectName } from "./file-store";

// Long enough for a 10 MiB upload on a slow link, short enough that a hung store frees the request.
const REQUEST_TIMEOUT_MS = 30_000;

export interface S3Settings {
  /** Endpoint and bucket (and any key prefix), path-style: https://s3.example.com/bucket. */
  url: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** Chat files as objects of an S3-compatible store (AWS S3, MinIO, R2, Ceph), signed with AWS Signature V4. */
export function s3FileStore(settings: S3Settings): ChatFileStore {
  const client = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    region: settings.region,
    service: "s3",
    // A 5xx or 429 is tried again twice; a store that does not answer at all fails at once.
    retries: 2,
  });
  const base = settings.url.replace(/\/+$/, "");

  async function send(
    method: "PUT" | "GET" | "DELETE",
    key: Parameters<typeof objectName>[0],
    body?: Buffer,
  ) {
    try {
      return await client.fetch(`${base}/${objectName(key)}`, {
        method,
        body: body ? new Uint8Array(body) : undefined,
        // The body's hash is signed, so the store refuses bytes changed on the way.
        headers: body
          ? {
              "content-type": "application/octet-stream",
              "x-amz-content-sha256": createHash("sha256").update(body).digest("hex"),
            }
          : undefined,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw fileStoreUnavailable(error);
    }
  }

  /** The store's refusal, by status and S3 error code only: its body may echo the request, never logged whole. */
  async function refused(response: Response, method: string) {
    const body = await response.text().catch(() => "");
    const code = /<Code>([^<]{1,100})<\/Code>/.exec(body)?.[1] ?? "no error code";
    return fileStoreFailed(new Error(`${method} answered ${response.status} (${code})`));
  }

  return {
    kind: "s3",
    async put(key, bytes) {
      const response = await send("PUT", key, bytes);
      if (!response.ok) throw await refused(response, "PUT");
      await response.body?.cancel();
    },
    async get(key) {
      const response = await send("GET", key);
      if (!response.ok) throw await refused(response, "GET");
      try {
        return Buffer.from(await response.arrayBuffer());
      } catch (error) {
        throw fileStoreUnavailable(error);
      }
    },
    async delete(key) {
      const response = await send("DELETE", key);
      // S3 answers 204 whether or not the object was there; some stores answer 404 for one already gone.
      if (!response.ok && response.status !== 404) throw await refused(response, "DELETE");
      await response.body?.cancel();
    },
  };
}
