/**
 * One email address, the addr-spec alone (`name@example.com`): what an invoice email may be sent to. A mailer
 * reads an address field as a LIST (nodemailer sends `a@x.example, b@y.example` to both, and honours display
 * names, groups and comments), so a customer email or a `to` that is anything but a single plain address could
 * copy an invoice to someone else. The rule is the WHATWG "valid email address" (HTML's input type=email):
 * no spaces, commas, angle brackets, quotes, parentheses, colons or semicolons, one @, a host of DNS labels.
 */
const ADDR_SPEC =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** RFC 5321's limit on a forward path (and the `to` field's maxLength). */
export const MAX_ADDRESS_LENGTH = 320;

export const isSingleAddress = (value: string): boolean => value.length <= MAX_ADDRESS_LENGTH && ADDR_SPEC.test(value);

export const NOT_SINGLE_ADDRESS = "Expected one email address (name@example.com), not a list or a display name";
