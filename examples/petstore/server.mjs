// A small Petstore server on node:http for the examples, the demo and the tests (127.0.0.1 only).
import { createServer } from "node:http";

const SEED = [
  {
    id: "rex",
    name: "Rex",
    tag: "dog",
    status: "available",
    weightKg: 31.5,
    owner: { name: "Ada", email: "ada@example.com", address: { city: "Seoul", street: "1 Main St" } },
  },
  {
    id: "tom",
    name: "Tom",
    tag: "cat",
    status: "sold",
    weightKg: 4.2,
    owner: { name: "Grace", address: { city: "Busan" } },
  },
  { id: "nemo", name: "Nemo", tag: null, status: "pending" },
];

const VISITS = {
  rex: [
    { date: "2026-01-10", vet: "Dr. Kim", notes: "vaccination" },
    { date: "2026-06-02", vet: "Dr. Lee", notes: null },
  ],
};

/**
 * Starts the server. `token`, when set, is the bearer token every request must carry.
 * @param {{ port?: number, token?: string }} [options]
 * @returns {Promise<{ url: string, close: () => Promise<void>, requests: Array<{ method: string, url: string, headers: Record<string, string | string[] | undefined> }>, pets: Map<string, object> }>}
 */
export async function startPetstoreServer(options = {}) {
  const pets = new Map(SEED.map((pet) => [pet.id, structuredClone(pet)]));
  const requests = [];
  const server = createServer(async (req, res) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: { ...req.headers } });
    const send = (status, body) => {
      const text = body === undefined ? "" : JSON.stringify(body);
      res.writeHead(status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
      });
      res.end(text);
    };
    if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`)
      return send(401, { message: "unauthorized" });
    const url = new URL(req.url ?? "/", "http://localhost");
    const parts = url.pathname.replace(/^\/v1/, "").split("/").filter(Boolean);
    if (parts[0] !== "pets") return send(404, { message: "not found" });
    if (parts.length === 1 && req.method === "GET") {
      const tag = url.searchParams.get("tag");
      const limit = Number(url.searchParams.get("limit") ?? 100);
      return send(200, [...pets.values()].filter((pet) => tag === null || pet.tag === tag).slice(0, limit));
    }
    if (parts.length === 1 && req.method === "POST") {
      let raw = "";
      for await (const chunk of req) raw += chunk;
      const input = JSON.parse(raw || "{}");
      const pet = {
        id: String(input.name).toLowerCase(),
        name: input.name,
        tag: input.tag ?? null,
        status: "available",
        ...(input.weightKg !== undefined ? { weightKg: input.weightKg } : {}),
      };
      pets.set(pet.id, pet);
      return send(201, pet);
    }
    const pet = pets.get(decodeURIComponent(parts[1] ?? ""));
    if (pet === undefined) return send(404, { message: "no such pet" });
    if (parts.length === 2 && req.method === "GET") return send(200, pet);
    if (parts.length === 2 && req.method === "DELETE") {
      pets.delete(pet.id);
      res.writeHead(204).end();
      return;
    }
    if (parts.length === 3 && parts[2] === "visits" && req.method === "GET")
      return send(200, { petId: pet.id, visits: VISITS[pet.id] ?? [] });
    return send(405, { message: "method not allowed" });
  });
  await new Promise((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    pets,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
