// `@tidings/core/node`: the helpers Node adapters use to read an IncomingMessage and write a ServerResponse.
// Kept out of the main entry so Web-only bundles (edge functions, Workers) never carry them.
export { type NodeRequestLike, readNodeBody, readNodeStream } from "../body/node-stream";
export { decodeWireBody } from "../body/wire-bytes";
export { handleNodeRequest, type NodeRequestOptions, type NodeResponseLike, writeNodeResponse } from "../serve/node";
