import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["contract/**/*.test.ts", "emulator/**/*.test.ts", "server/**/*.test.ts", "src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
    environment: "node",
    // Two cores: keep the worker count to the machine.
    maxWorkers: 2,
    testTimeout: 20_000,
    // Building a store and an emulator in beforeAll takes seconds on a busy 2-core machine.
    hookTimeout: 30_000,
  },
});
