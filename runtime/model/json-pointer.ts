/** JSON Pointer reference tokens (RFC 6901 §4): `~0` is `~` and `~1` is `/`. */

export function decodePointerToken(token: string): string {
  if (!token.includes("~")) return token;
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

export function encodePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}
