/**
 * The example GraphQL server on 127.0.0.1 (`npm run demo` and the tests): the library schema
 * (examples/graphql/library.graphql) executed by graphql-js and served by graphql-http's node
 * handler, with a request log. Some data
 * makes real GraphQL errors: book "b3"'s rating resolver fails (partial data: `rating` is nullable),
 * deleting book "locked" fails (no data: `deleteBook` is non-null), and a search for "" fails.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import type { GraphQLSchema } from "graphql";
import { createHandler } from "graphql-http/lib/use/node";

// The graphql copy graphql-http loads under Node (CommonJS): a schema from another copy is refused.
const { buildSchema } = createRequire(import.meta.url)("graphql") as typeof import("graphql");

export interface GraphqlRequest {
  readonly headers: IncomingHttpHeaders;
  readonly query: string;
  readonly variables: Record<string, unknown> | undefined;
}

export interface GraphqlServer {
  /** The endpoint, `http://127.0.0.1:<port>/graphql`. */
  readonly url: string;
  readonly schema: GraphQLSchema;
  readonly requests: GraphqlRequest[];
  /** Answers the next requests itself instead of graphql-http (hostile cases); undefined restores it. */
  respondWith(responder: ((request: IncomingMessage, response: ServerResponse) => void) | undefined): void;
  close(): Promise<void>;
}

interface Author {
  readonly id: string;
  readonly name: string;
  readonly born: number | null;
}

const AUTHORS: readonly Author[] = [
  { id: "a1", name: "Ursula K. Le Guin", born: 1929 },
  { id: "a2", name: "Carl Sagan", born: 1934 },
];

const BOOKS = [
  {
    id: "b1",
    title: "The Dispossessed",
    genre: "FICTION",
    pages: 387,
    rating: 4.3,
    authorId: "a1",
    tags: ["anarchy", "physics"],
  },
  {
    id: "b2",
    title: "Cosmos",
    genre: "SCIENCE",
    pages: 365,
    rating: 4.4,
    authorId: "a2",
    tags: ["astronomy"],
  },
  {
    id: "b3",
    title: "The Left Hand of Darkness",
    genre: "FICTION",
    pages: 304,
    rating: 4.1,
    authorId: "a1",
    tags: [],
  },
];

function authorOf(id: string) {
  const author = AUTHORS.find((candidate) => candidate.id === id)!;
  return {
    __typename: "Author",
    ...author,
    books: () => BOOKS.filter((book) => book.authorId === id).map(bookOf),
  };
}

function bookOf(book: (typeof BOOKS)[number]) {
  return {
    __typename: "Book",
    ...book,
    published: "1974-05-01T00:00:00Z",
    rating: () => {
      if (book.id === "b3") throw new Error("the rating service is down");
      return book.rating;
    },
    author: () => authorOf(book.authorId),
    reviews: () => [],
  };
}

const rootValue = {
  book: ({ id }: { id: string }) => {
    const book = BOOKS.find((candidate) => candidate.id === id);
    return book === undefined ? null : bookOf(book);
  },
  books: ({ genre, first }: { genre?: string; first: number }) =>
    BOOKS.filter((book) => genre === undefined || book.genre === genre)
      .slice(0, first)
      .map(bookOf),
  search: ({ text }: { text: string }) => {
    if (text === "") throw new Error("search needs some text");
    const lower = text.toLowerCase();
    return [
      ...BOOKS.filter((book) => book.title.toLowerCase().includes(lower)).map(bookOf),
      ...AUTHORS.filter((author) => author.name.toLowerCase().includes(lower)).map((author) =>
        authorOf(author.id),
      ),
    ];
  },
  node: ({ id }: { id: string }) => {
    const book = BOOKS.find((candidate) => candidate.id === id);
    if (book !== undefined) return bookOf(book);
    return AUTHORS.some((author) => author.id === id) ? authorOf(id) : null;
  },
  bookCount: () => BOOKS.length,
  addReview: ({ review }: { review: { bookId: string; stars: number; text?: string } }) => ({
    id: `r-${review.bookId}-${review.stars}`,
    stars: review.stars,
    text: review.text ?? null,
  }),
  deleteBook: ({ id }: { id: string }) => {
    if (id === "locked") throw new Error("permission denied: book is locked");
    return BOOKS.some((book) => book.id === id);
  },
};

/** Serves the SDL file at `sdlPath` (the library schema) with the example data. */
export async function startGraphqlServer(sdlPath: string): Promise<GraphqlServer> {
  const schema = buildSchema(readFileSync(sdlPath, "utf8"));
  const handler = createHandler({ schema, rootValue });
  const requests: GraphqlRequest[] = [];
  let responder: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    // graphql-http sets the stream's encoding: chunks may arrive as strings.
    request.on("data", (chunk: Buffer | string) => chunks.push(Buffer.from(chunk)));
    request.on("end", () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          query: string;
          variables?: Record<string, unknown>;
        };
        requests.push({ headers: request.headers, query: body.query, variables: body.variables });
      } catch {
        requests.push({ headers: request.headers, query: "", variables: undefined });
      }
      if (responder !== undefined) responder(request, response);
    });
    if (responder === undefined) void handler(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    schema,
    requests,
    respondWith(next) {
      responder = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
