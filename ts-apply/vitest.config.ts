import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Tests run inside workerd with the Worker's real D1 binding, migrated from the project's one
// schema folder by test/setup.ts.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(new URL("../magg_kg/migrations/", import.meta.url).pathname);
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.jsonc" },
        miniflare: { bindings: { MAGG_D1_TOKEN: "test-token", MAGG_D1_READ_TOKEN: "read-token", TEST_MIGRATIONS: migrations } },
      }),
    ],
    test: { setupFiles: ["./test/setup.ts"] },
  };
});
