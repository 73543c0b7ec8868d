import type { NextConfig } from "next";

const config: NextConfig = {
  // GET /messages/:id answers like the other examples.
  async rewrites() {
    return [{ source: "/messages/:id", destination: "/api/messages/:id" }];
  },
};

export default config;
