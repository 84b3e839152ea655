// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

const processEnvOnlyInEnvModules = {
  "no-restricted-properties": [
    "error",
    { object: "process", property: "env", message: "Read configuration in server/env.ts or emulator/env.ts only." },
  ],
};

export default tseslint.config(
  { ignores: ["dist/", "build/", "node_modules/", "coverage/", "test-results/", "playwright-report/", "src/routeTree.gen.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/switch-exhaustiveness-check": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      ...processEnvOnlyInEnvModules,
    },
  },
  { files: ["**/*.js"], extends: [tseslint.configs.disableTypeChecked], languageOptions: { globals: globals.node } },
  {
    files: ["contract/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/server/**", "**/emulator/**", "**/src/**"], message: "contract/ depends on nothing of ours." }] },
      ],
    },
  },
  {
    files: ["src/**"],
    ignores: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    languageOptions: { globals: globals.browser },
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/server/**", "**/emulator/**"], message: "src/ imports contract/ only." }] },
      ],
    },
  },
  {
    files: ["server/**"],
    ignores: ["server/**/*.test.ts", "server/test-support/**", "server/**/testing/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/emulator/**", "**/src/**"], message: "Production code never imports the emulator or the SPA." }] },
      ],
    },
  },
  {
    files: ["emulator/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/server/**", "**/src/**"], message: "The emulator stands alone: it shares contract/ only." }] },
      ],
    },
  },
  {
    files: ["server/env.ts", "emulator/env.ts", "scripts/**", "bench/**", "e2e/**", "*.config.ts", "**/*.test.ts"],
    rules: { "no-restricted-properties": "off" },
  },
);
