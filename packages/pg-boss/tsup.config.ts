import { packageBuild } from "../../config/tsup";

// pg-boss's own package.json is read with an import attribute (`with { type: "json" }`), which Node ≥ 22 requires of
// a JSON import; ES2022 has no attributes, so esbuild would drop it unless told the runtime supports them.
export default packageBuild({
  esbuildOptions(options) {
    options.supported = { ...options.supported, "import-attributes": true };
  },
});
