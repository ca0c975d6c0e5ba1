// Writes schemarouter.config.schema.json (the editor schema) from the built compiler's CONFIG_SCHEMA.
import { writeFileSync } from "node:fs";
import { CONFIG_SCHEMA } from "../dist/compiler/config-schema.js";

writeFileSync(
  new URL("../schemarouter.config.schema.json", import.meta.url),
  `${JSON.stringify(CONFIG_SCHEMA, null, 2)}\n`,
);
