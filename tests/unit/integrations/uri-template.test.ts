import { describe, expect, it } from "vitest";
import { fillTemplate, templateVariables } from "@/components/integrations/feature-explorer";

describe("filling in a resource template", () => {
  it("lists the variables and fills them, encoded", () => {
    expect(templateVariables("demo://resource/dynamic/text/{resourceId}")).toEqual(["resourceId"]);
    expect(fillTemplate("demo://resource/dynamic/text/{resourceId}", { resourceId: "7" })).toBe(
      "demo://resource/dynamic/text/7",
    );
    expect(fillTemplate("file:///{name}", { name: "a b/c" })).toBe("file:///a%20b%2Fc");
  });

  it("keeps reserved characters for {+path} and builds a query of the filled {?a,b}", () => {
    expect(templateVariables("repo://{+path}{?ref,depth}")).toEqual(["path", "ref", "depth"]);
    expect(fillTemplate("repo://{+path}{?ref,depth}", { path: "src/app.ts", ref: "main" })).toBe(
      "repo://src/app.ts?ref=main",
    );
    expect(fillTemplate("repo://{+path}{?ref}", { path: "x" })).toBe("repo://x");
  });
});
