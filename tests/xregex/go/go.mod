module por/xregex

go 1.19
