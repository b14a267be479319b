/**
 * The largest file `geohub up` takes by default, in GB: above the largest input geohub has been
 * run on (4.3 GiB), below what a laptop's temporary directory holds twice (the body lands there,
 * then goes to the bucket). `geohub up --max-upload-gb` raises it.
 */
export const DEFAULT_MAX_UPLOAD_GB = 8;
