import { packageBuild } from "../../config/tsup";

export default packageBuild();
