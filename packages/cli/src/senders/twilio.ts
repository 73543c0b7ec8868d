import { form, type SenderSample, uuidOf } from "./sample";

/**
 * An incoming SMS as Twilio posts it, a form whose fields the URL's signature covers; its `MessageSid` is made of
 * `id`: the scheme dedups by `MessageSid` and its status (`received`).
 */
export const twilio: SenderSample = (id) => {
  const sid = `SM${uuidOf(id).replaceAll("-", "")}`;
  return form({
    ToCountry: "US",
    ToState: "CA",
    SmsMessageSid: sid,
    NumMedia: "0",
    ToCity: "SAN FRANCISCO",
    FromZip: "94105",
    SmsSid: sid,
    FromState: "CA",
    SmsStatus: "received",
    FromCity: "SAN FRANCISCO",
    Body: "Hello there! été",
    FromCountry: "US",
    To: "+15005550010",
    MessagingServiceSid: "MG0123456789abcdef0123456789abcdef",
    ToZip: "94105",
    NumSegments: "1",
    MessageSid: sid,
    AccountSid: "AC0123456789abcdef0123456789abcdef",
    From: "+15005550006",
    ApiVersion: "2010-04-01",
  });
};
