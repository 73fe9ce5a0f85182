package main
import (
 _ "charm.land/bubbletea/v2"
 _ "charm.land/bubbles/v2/table"
 _ "charm.land/lipgloss/v2"
 _ "charm.land/huh/v2"
 _ "github.com/spf13/cobra"
 _ "golang.org/x/time/rate"
 _ "golang.org/x/oauth2"
 _ "github.com/getkin/kin-openapi/openapi3filter"
 _ "github.com/adrg/xdg"
)
func main(){}
