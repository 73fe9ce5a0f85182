package api

import (
	"slices"
	"strings"
)

// Three phone setting keys and one extension type carry the provider's name.
// The spec writes them with the neutral word (PhoneSettingTypes does too);
// on the wire, and so in answers, snapshots and --types, they carry the
// profile's path word: with the word "acme", vendor_phone_on_mobile is
// acme_phone_on_mobile and vendorRoom is acmeRoom.

// brandedPhoneKeys are the setting keys that carry the word, as prefix and
// suffix around it.
var brandedPhoneKeys = [][2]string{
	{"", "_phone_on_mobile"},
	{"", "_phone_on_pwa"},
	{"external_calling_on_", "_room_common_area"},
}

// brandedExtensionSuffix ends the extension type of the provider's rooms
// (vendorRoom).
const brandedExtensionSuffix = "Room"

// brandWord returns the word a branded key carries, or "" when key is not
// one of them.
func brandWord(key string) (word string, neutral string) {
	for _, b := range brandedPhoneKeys {
		w, ok := strings.CutPrefix(key, b[0])
		if !ok {
			continue
		}
		if w, ok = strings.CutSuffix(w, b[1]); ok && plainWord(w) {
			return w, b[0] + DefaultPathWord + b[1]
		}
	}
	return "", ""
}

// plainWord reports whether w can be a path word inside a key: not empty,
// no separators of paths or lists.
func plainWord(w string) bool { return w != "" && !strings.ContainsAny(w, "/?#, ") }

// NeutralPhoneSettingKey writes a setting key with the spec's neutral word
// (acme_phone_on_mobile becomes vendor_phone_on_mobile); other keys come
// back unchanged. Catalogs of the 43 settings are keyed by the neutral form.
func NeutralPhoneSettingKey(key string) string {
	if _, neutral := brandWord(key); neutral != "" {
		return neutral
	}
	return key
}

// PhoneSettingKeyFor writes a key of PhoneSettingTypes with word in place of
// the neutral one; keys that carry no word come back unchanged.
func PhoneSettingKeyFor(word, key string) string {
	if _, neutral := brandWord(key); neutral != "" && plainWord(word) {
		return strings.Replace(neutral, DefaultPathWord, word, 1)
	}
	return key
}

// PhoneSettingTypesFor lists the 43 setting keys as a provider whose path
// word is word spells them, in the spec's order.
func PhoneSettingTypesFor(word string) []string {
	out := make([]string, len(PhoneSettingTypes))
	for i, k := range PhoneSettingTypes {
		out[i] = PhoneSettingKeyFor(word, k)
	}
	return out
}

// isPhoneSettingTypeFor reports whether key is one of the 43 keys spelt with
// word; word "" accepts any word in the branded keys.
func isPhoneSettingTypeFor(word, key string) bool {
	if word == "" {
		return slices.Contains(PhoneSettingTypes, NeutralPhoneSettingKey(key))
	}
	return slices.Contains(PhoneSettingTypesFor(word), key)
}

// roomExtensionType reports whether v is the extension type of the
// provider's rooms under some word (vendorRoom, acmeRoom).
func roomExtensionType(v string) bool {
	w, ok := strings.CutSuffix(v, brandedExtensionSuffix)
	if !ok || !plainWord(w) {
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			if r < '0' || r > '9' {
				return false
			}
		}
	}
	return true
}

// PhoneExtensionRoom is the extension type of the provider's rooms for a
// path word (vendorRoom for "vendor").
func PhoneExtensionRoom(word string) string { return word + brandedExtensionSuffix }
