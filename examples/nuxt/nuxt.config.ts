// A Nuxt app whose server receives the delivery webhooks; the one page only says so.
export default defineNuxtConfig({
  compatibilityDate: "2026-01-01",
  devtools: { enabled: false },
  telemetry: false,
});
