package phone

import (
	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/phone/policy"
)

// groupNames are the themes the list groups settings by, in display order.
var groupNames = policy.Groups()

// lockText says who may change a setting.
func lockText(c api.PhoneSettingCommon) string {
	switch {
	case !c.IsLocked():
		return "Not locked: users can change it."
	case c.LockedBy == api.LockedByAccount:
		return "Locked by the account administrator: users cannot change it."
	}
	return "Locked (the level that locked it is not given): users cannot change it."
}

// lockBadge is the short lock mark of a list row ("" when not locked).
func lockBadge(c api.PhoneSettingCommon) string {
	switch {
	case !c.IsLocked():
		return ""
	case c.LockedBy == "" || c.LockedBy == api.LockedByInvalid:
		return "locked"
	}
	return "locked: " + c.LockedBy
}
