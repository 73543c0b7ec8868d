/** The one TextEncoder every module encodes UTF-8 with. */
export const encoder = /* @__PURE__ */ new TextEncoder();
