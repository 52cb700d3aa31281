module github.com/tablesettle/tablesettle

go 1.26.8

require github.com/danielgtaylor/huma/v2 v2.37.2
