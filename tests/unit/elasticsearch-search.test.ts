import { Client, errors } from "@elastic/elasticsearch";
import Mock from "@elastic/elasticsearch-mock";
import { beforeEach, describe, expect, it } from "vitest";
import { ElasticsearchSearch } from "@/lib/search/elasticsearch-search";

// No Elasticsearch server runs here: the official mock answers the client's real HTTP requests.
let mock: Mock;
let search: ElasticsearchSearch;
const requests: { method: string; path: string; body: unknown }[] = [];

beforeEach(() => {
  mock = new Mock();
  requests.length = 0;
  const client = new Client({ node: "http://elasticsearch.test:9200", Connection: mock.getConnection() });
  search = new ElasticsearchSearch(client, "kb");
  const record = (params: { method: string | string[]; path: string | string[]; body?: unknown }) => {
    requests.push({ method: String(params.method), path: String(params.path), body: params.body });
  };
  mock.add({ method: "HEAD", path: "/kb" }, (params) => {
    record(params);
    return "";
  });
  mock.add({ method: "PUT", path: "/kb/_doc/:id" }, (params) => {
    record(params);
    return { result: "created", _id: "x" };
  });
  mock.add({ method: "DELETE", path: "/kb/_doc/:id" }, (params) => {
    record(params);
    return { result: "deleted" };
  });
  mock.add({ method: "POST", path: "/kb/_search" }, (params) => {
    record(params);
    return {
      hits: {
        total: { value: 2, relation: "eq" },
        hits: [
          {
            _id: "1",
            _score: 3.2,
            _source: { org_id: "org-a", name: "router-1", content: "Edge router" },
            highlight: { content: ["Edge <mark>router</mark>"] },
          },
          {
            _id: "2",
            _score: 1.1,
            _source: { org_id: "org-a", name: "notes", content: "A long note without a highlight" },
          },
        ],
      },
    };
  });
});

describe("Elasticsearch search backend", () => {
  it("filters by organization, searches names above content, and highlights with <mark>", async () => {
    const hits = await search.search("org-a", "router", 5);
    expect(hits).toEqual([
      { name: "router-1", score: 3.2, snippet: "Edge <mark>router</mark>" },
      { name: "notes", score: 1.1, snippet: "A long note without a highlight" },
    ]);
    const body = requests.find((request) => request.path === "/kb/_search")?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      size: 5,
      query: {
        bool: {
          filter: [{ term: { org_id: "org-a" } }],
          must: [{ multi_match: { query: "router", fields: ["name^2", "content"] } }],
        },
      },
      highlight: { pre_tags: ["<mark>"], post_tags: ["</mark>"] },
    });
  });

  it("indexes a node on write and removes it on delete, under the node's id", async () => {
    await search.indexNode({ id: "n1", organizationId: "org-a", name: "router-1", content: "Edge router" });
    await search.removeNode("n1");
    expect(requests.filter((r) => r.method !== "HEAD").map((r) => [r.method, r.path])).toEqual([
      ["PUT", "/kb/_doc/n1"],
      ["DELETE", "/kb/_doc/n1"],
    ]);
    expect(requests.find((r) => r.method === "PUT")?.body).toEqual({
      org_id: "org-a",
      name: "router-1",
      content: "Edge router",
    });
  });

  it("creates the index with its mappings when it does not exist", async () => {
    const fresh = new Mock();
    const created: unknown[] = [];
    fresh.add(
      { method: "HEAD", path: "/kb" },
      () =>
        new errors.ResponseError({
          body: "",
          statusCode: 404,
          headers: {},
          warnings: null,
          meta: {} as never,
        }),
    );
    fresh.add({ method: "PUT", path: "/kb" }, (params) => {
      created.push(params.body);
      return { acknowledged: true };
    });
    fresh.add({ method: "POST", path: "/kb/_search" }, () => ({ hits: { hits: [] } }));
    const backend = new ElasticsearchSearch(
      new Client({ node: "http://elasticsearch.test:9200", Connection: fresh.getConnection() }),
      "kb",
    );
    expect(await backend.search("org-a", "anything", 10)).toEqual([]);
    expect(created[0]).toMatchObject({ mappings: { properties: { org_id: { type: "keyword" } } } });
  });
});
