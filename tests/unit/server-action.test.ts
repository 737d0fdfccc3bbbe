import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "@/lib/errors";
import { booleanArg, formArg, idArg } from "@/lib/http/action-args";
import { anyone, keptValues, serverAction, throwingServerAction } from "@/lib/http/server-action";

// The wrapper hands the body the database of getDb(); Next's cache and redirect need its runtime: stand in for
// them, the redirect throwing as Next's does.
const db = vi.hoisted(() => ({ name: "the database" }));
vi.mock("@/db/client", () => ({ getDb: () => db }));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw Object.assign(new Error("NEXT_REDIRECT"), { url });
  },
}));

const ID = "5f0c7a52-6a3b-4f8e-9d1c-2b7e4a9c0d11";
const ctx = { userId: ID, orgId: ID };
const signedIn = async () => ctx;

const idInput = z.object({ id: idArg, enabled: booleanArg });
const formInput = z.object({ form: formArg });

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const one of [value].flat()) data.append(name, one);
  }
  return data;
}

/** Calls an action the way a forged request can: with arguments of any type, whatever its signature says. */
const forged = <T>(value: unknown) => value as T;

let logged: string[];
beforeEach(() => {
  logged = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    logged.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    logged.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.mocked(revalidatePath).mockClear();
});

describe("serverAction", () => {
  it("answers bad arguments with the message and each field's, before the context or the body runs", async () => {
    const context = vi.fn(signedIn);
    const run = vi.fn();
    const answer = await serverAction({
      name: "setEnabled",
      args: idInput,
      input: { id: `${ID}'--`, enabled: forged<boolean>("false") },
      context,
      run,
    });
    expect(answer).toEqual({
      error: "This request is not valid: id: must be an id.",
      fields: { id: ["id: must be an id"], enabled: ["enabled: must be true or false"] },
    });
    expect(context).not.toHaveBeenCalled();
    expect(run).not.toHaveBeenCalled();
  });

  it("refuses a form action called with something else than its form, keeping nothing", async () => {
    const run = vi.fn();
    const answer = await serverAction({
      name: "save",
      args: formInput,
      input: { form: forged<FormData>({ name: "x" }) },
      context: signedIn,
      keep: ["name"],
      run,
    });
    expect(answer).toEqual({
      error: "This request is not valid: form: must be the form's data.",
      fields: { form: ["form: must be the form's data"] },
    });
    expect(run).not.toHaveBeenCalled();
  });

  it("hands the body the database and the context it resolved", async () => {
    const answer = await serverAction({
      name: "read",
      args: idInput,
      input: { id: ID, enabled: true },
      context: signedIn,
      run: (deps) => deps,
    });
    expect(answer).toEqual({ db, ctx });
  });

  it("answers a validation error with its fields and the form's kept values", async () => {
    const answer = await serverAction({
      name: "saveAgent",
      args: formInput,
      input: { form: form({ name: "", instructions: "Be brief.", secret: "s3cret" }) },
      context: signedIn,
      keep: ["name", "instructions", "model"],
      run: () => {
        throw new ValidationError("Name is required.", { name: ["Name is required."] });
      },
    });
    expect(answer).toEqual({
      error: "Name is required.",
      fields: { name: ["Name is required."] },
      values: { name: "", instructions: "Be brief.", model: "" },
    });
  });

  it("answers not found and forbidden with their messages, keeping the values a function of the form chooses", async () => {
    for (const [thrown, message] of [
      [new NotFoundError("Agent"), "Agent was not found."],
      [new ForbiddenError(), "You do not have permission to do that."],
    ] as const) {
      const answer = await serverAction({
        name: "saveAgent",
        args: formInput,
        input: { form: form({ email: "ada@example.com" }) },
        context: signedIn,
        keep: (sent) => ({ email: String(sent.get("email")), role: "member" }),
        run: () => Promise.reject(thrown),
      });
      expect(answer).toEqual({ error: message, values: { email: "ada@example.com", role: "member" } });
    }
    expect(logged.join("")).toBe("");
  });

  it("answers a context that refuses (nobody signed in) as a refusal, without running the body", async () => {
    const run = vi.fn();
    const answer = await serverAction({
      name: "delete",
      args: idInput,
      input: { id: ID, enabled: true },
      context: () => Promise.reject(new UnauthorizedError()),
      run,
    });
    expect(answer).toEqual({ error: "Sign in to continue." });
    expect(run).not.toHaveBeenCalled();
  });

  it("answers any other error with the generic message, no detail and no stack, and logs it under the action's name", async () => {
    const answer = await serverAction({
      name: "importKnowledge",
      args: formInput,
      input: { form: form({ name: "kept" }) },
      context: signedIn,
      keep: ["name"],
      run: () => {
        throw new TypeError("connection to 10.0.0.5 refused");
      },
    });
    expect(answer).toEqual({
      error:
        "Something went wrong on our side. Try again; if it keeps happening, contact your administrator.",
      values: { name: "kept" },
    });
    expect(JSON.stringify(answer)).not.toMatch(/10\.0\.0\.5|TypeError|at /);
    expect(logged.join("")).toMatch(/importKnowledge/);
  });

  it("runs the success step with the body's value, outside the try: its redirect redirects", async () => {
    const action = () =>
      serverAction({
        name: "createIntegration",
        args: formInput,
        input: { form: form({ name: "Remote" }) },
        context: signedIn,
        keep: ["name"],
        run: () => "the-new-id",
        onSuccess: (id) => {
          revalidatePath("/integrations");
          redirect(`/integrations/${id}?test=1`);
        },
      });
    await expect(action()).rejects.toMatchObject({
      message: "NEXT_REDIRECT",
      url: "/integrations/the-new-id?test=1",
    });
    expect(revalidatePath).toHaveBeenCalledWith("/integrations");
  });

  it("answers the success step's result, or the body's value when there is none", async () => {
    const saved = await serverAction({
      name: "saveNode",
      args: idInput,
      input: { id: ID, enabled: true },
      context: signedIn,
      run: () => 3,
      onSuccess: (imported) => {
        revalidatePath("/knowledge");
        return { success: `Imported ${imported} nodes.` };
      },
    });
    expect(saved).toEqual({ success: "Imported 3 nodes." });
    expect(revalidatePath).toHaveBeenCalledWith("/knowledge");
    const read = await serverAction({
      name: "read",
      args: idInput,
      input: { id: ID, enabled: true },
      context: anyone,
      run: ({ ctx: nobody }) => ({ nobody }),
    });
    expect(read).toEqual({ nobody: null });
  });

  it("does not run the success step after a refusal", async () => {
    const onSuccess = vi.fn();
    await serverAction({
      name: "delete",
      args: idInput,
      input: { id: ID, enabled: true },
      context: signedIn,
      run: () => Promise.reject(new NotFoundError("Agent")),
      onSuccess,
    });
    expect(onSuccess).not.toHaveBeenCalled();
  });
});

describe("throwingServerAction", () => {
  it("throws bad arguments as a ValidationError, before the body runs", async () => {
    const run = vi.fn();
    const thrown = await throwingServerAction({
      name: "deleteConversation",
      args: idInput,
      input: { id: forged<string>({ id: ID }), enabled: true },
      context: signedIn,
      run,
      onSuccess: () => undefined,
    }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).details?.fields).toEqual({ id: ["id: must be an id"] });
    expect(run).not.toHaveBeenCalled();
  });

  it("throws the body's errors as they are, and redirects on success", async () => {
    const missing = new NotFoundError("Conversation");
    await expect(
      throwingServerAction({
        name: "deleteConversation",
        args: idInput,
        input: { id: ID, enabled: true },
        context: signedIn,
        run: () => Promise.reject(missing),
        onSuccess: () => redirect("/chat"),
      }),
    ).rejects.toBe(missing);
    await expect(
      throwingServerAction({
        name: "deleteConversation",
        args: idInput,
        input: { id: ID, enabled: true },
        context: signedIn,
        run: ({ db: given, ctx: who }) => ({ given, who }),
        onSuccess: ({ given, who }) => {
          expect(given).toBe(db);
          expect(who).toBe(ctx);
          redirect("/chat");
        },
      }),
    ).rejects.toMatchObject({ url: "/chat" });
  });
});

describe("keptValues", () => {
  it("keeps the named fields as sent, a repeated field comma-separated, a missing one empty", () => {
    const sent = form({ name: " Key ", integrationIds: ["a", "b"], token: "secret" });
    expect(keptValues(sent, ["name", "integrationIds", "expiresOn"])).toEqual({
      name: " Key ",
      integrationIds: "a,b",
      expiresOn: "",
    });
  });

  it("keeps only filled fields, trimmed, when asked", () => {
    const sent = form({ name: " Remote ", url: "  ", transport: "sse" });
    expect(keptValues(sent, ["name", "url", "transport", "command"], { filledOnly: true })).toEqual({
      name: "Remote",
      transport: "sse",
    });
  });
});
