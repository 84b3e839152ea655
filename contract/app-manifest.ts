import * as z from "zod/mini";

// The shape of `svc.app.toml`: slug, name, version, OAuth redirect URIs,
// required and optional scopes, and the settings schema answered at install.

const settingQuestion = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("integer"), title: z.string(), default: z.int(), minimum: z.optional(z.int()), maximum: z.optional(z.int()) }),
  z.strictObject({ type: z.literal("boolean"), title: z.string(), default: z.boolean() }),
  z.strictObject({ type: z.literal("string"), title: z.string(), default: z.string() }),
]);

export const appManifest = z.strictObject({
  slug: z.string().check(z.regex(/^[a-z][a-z0-9-]*$/, "must be a lower-case slug")),
  name: z.string().check(z.minLength(1)),
  version: z.string().check(z.regex(/^\d+\.\d+\.\d+$/, "must be a semantic version")),
  description: z.string(),
  oauth: z.strictObject({
    redirect_uris: z.array(z.url()).check(z.minLength(1)),
  }),
  scopes: z.strictObject({
    required: z.array(z.string()),
    optional: z.array(z.string()),
  }),
  settings: z.record(z.string(), settingQuestion),
});
export type AppManifest = z.infer<typeof appManifest>;
